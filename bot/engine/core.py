"""The fast core of the rules engine: a C twin of :class:`~bot.engine.board.Board`, when built.

``pip install -e .`` compiles ``bot/engine/csrc`` into the extension ``bot.engine._core`` where
a C compiler exists (see ``setup.py``); without one the install still succeeds and everything
runs on the Python engine. The Python engine stays the reference: the C board mirrors
``board.py`` and ``rules.py`` function for function, reads every table of a variant from them
(:func:`board_spec`), and the tests prove both play alike (perft of every variant, and legal
moves, captures and endings over random games).

The extension is used only when it was built from the sources beside it: a build older than an
edit of ``csrc`` is ignored (:func:`state` says so), and ``TAFL_PURE_PYTHON=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from .board import Board
from .rules import CentreStrongRules, CopenhagenRules, GroupRules, SurroundedRules, rules_for
from .tables import MOVE_SHIFT, tables_for
from .types import Termination
from .variants import Variant

if TYPE_CHECKING:
    from . import _core

SOURCES = Path(__file__).resolve().parent / "csrc"
"""The C sources of ``bot.engine._core``."""

PURE_PYTHON_VARIABLE = "TAFL_PURE_PYTHON"
"""Set to 1 to run the Python engine and search even where the fast core is built."""

STATUS: tuple[Termination | None, ...] = (
    None,
    Termination.KING_ESCAPED,
    Termination.KING_CAPTURED,
    Termination.GROUP_CAPTURED,
    Termination.TUICHI,
    Termination.EXIT_FORT,
    Termination.ENCIRCLEMENT,
)
"""The endings by the C core's status codes (``board.h``: ``ST_*``)."""

_FAMILIES = {CentreStrongRules: 0, SurroundedRules: 1, GroupRules: 2, CopenhagenRules: 3}


def source_digest(*directories: Path) -> str:
    """SHA-256 of the C sources in ``directories`` (``*.c`` and ``*.h``, by name), as
    ``setup.py`` compiles it into each extension to tell a stale build."""
    digest = hashlib.sha256()
    for directory in directories:
        for path in sorted(directory.glob("*.[ch]")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def load_extension(name: str, directories: Iterable[Path]) -> tuple[ModuleType | None, str]:
    """Import a fast core extension if it is built and fresh: ``(module, "fast")``, or
    ``(None, why not)`` with ``why`` one of ``"off"`` (:data:`PURE_PYTHON_VARIABLE`),
    ``"missing"`` or ``"stale"``."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None, "off"
    try:
        module = __import__(name, fromlist=["_"])
    except ImportError:
        return None, "missing"
    folders = list(directories)
    # Without its sources (an installed wheel) a build cannot be checked, and is trusted.
    present = all(folder.is_dir() for folder in folders)
    if present and getattr(module, "SOURCE_DIGEST", None) != source_digest(*folders):
        return None, "stale"
    return module, "fast"


@cache
def _loaded() -> tuple[ModuleType | None, str]:
    return load_extension("bot.engine._core", [SOURCES])


def extension() -> ModuleType | None:
    """The ``bot.engine._core`` module when it is built and fresh (else ``None``)."""
    return _loaded()[0]


def state() -> str:
    """``fast``, or why the engine runs as pure Python: ``off``, ``missing`` or ``stale``."""
    return _loaded()[1]


def _require() -> None:
    """Raise unless the fast core is in use: only then may ``bot.engine._core`` be imported
    (the typed way to it, ``_core.pyi``; :func:`extension` has checked that it is fresh)."""
    if extension() is None:
        raise RuntimeError(f"the fast core is not in use ({state()})")


def board_spec(variant: Variant) -> dict[str, object]:
    """Everything the C board needs to know of a variant, read from the Python engine's own
    tables and rules object (so no rule's data is written twice)."""
    tables = tables_for(variant)
    rules = rules_for(variant)
    n = tables.size
    area = n * n
    last = n - 1
    edges: list[tuple[tuple[int, ...], int]] = []
    if isinstance(rules, CopenhagenRules):
        edges = [(squares, inward) for squares, inward in rules._edges]
    return {
        "n": n,
        "throne": tables.throne,
        "first_side": tables.first_side,
        "family": _FAMILIES[type(rules)],
        "king_armed": int(tables.king_armed),
        "linnaean": int(tables.linnaean),
        "tuichi_wins": int(variant.tuichi_wins),
        "extra_captures": int(rules.extra_captures),
        "empty_throne_hostile_att": int(tables.empty_throne_hostile_to_attackers),
        "empty_throne_hostile_def": int(tables.empty_throne_hostile_to_defenders),
        "occupied_throne_hostile_def": int(tables.occupied_throne_hostile_to_defenders),
        "throne_passable": int(tables.throne_passable),
        "is_escape": bytes(tables.is_escape),
        "king_barred": bytes(tables.king_barred),
        "closes_ring": bytes(tables.closes_ring),
        "hostile_att": bytes(tables.hostile_to_attackers),
        "hostile_def": bytes(tables.hostile_to_defenders),
        "is_corner": bytes(1 if sq in tables.corners else 0 for sq in range(area)),
        "is_edge": bytes(
            1 if sq // n in (0, last) or sq % n in (0, last) else 0 for sq in range(area)
        ),
        "zobrist": tables.zobrist,
        "zobrist_side": tables.zobrist_side,
        "neighbours": tables.neighbours,
        "capture_pairs": tables.capture_pairs,
        "rays": tables.rays,
        "line_squares": tables.lines,
        "line_codes": tables.line_codes,
        "edges": edges,
    }


@cache
def spec_for(variant: Variant) -> _core.Spec:
    """The C core's compiled spec of a variant (built once per process); needs the core."""
    _require()
    from . import _core

    return _core.Spec(board_spec(variant))


def fast_board(board: Board) -> _core.Board:
    """A C board set up like ``board`` (its position and side to move, not its history)."""
    _require()
    from . import _core

    return _core.Board(spec_for(board.variant), bytes(board.cells), board.turn)


class FastBoard:
    """A C board behind the part of :class:`~bot.engine.board.Board`'s interface that the
    puzzle prover uses (``bot.ai.puzzles.proof``): the same moves, in the same order, the same
    hashes and endings (:data:`STATUS` mapped to :class:`Termination`), and the squares as
    bytes. Only :meth:`winning_moves` has no Python twin on the board: it is the prover's
    play-every-move test of wins at once, run in C.

    The C methods that need no translation are bound at construction, so calling them costs
    no Python frame.
    """

    __slots__ = (
        "captures_by",
        "core",
        "has_moves",
        "king_capturing_moves",
        "king_routes",
        "moves",
        "pass_turn",
        "tables",
        "unmake",
        "variant",
    )

    def __init__(self, board: Board) -> None:
        self.variant = board.variant
        self.tables = board.tables
        fast = fast_board(board)
        self.core = fast
        self.moves: Callable[[], list[int]] = fast.moves
        self.has_moves: Callable[[], bool] = fast.has_moves
        self.unmake: Callable[[], None] = fast.unmake
        self.king_routes: Callable[[], list[int]] = fast.king_routes
        self.king_capturing_moves: Callable[[], list[int]] = fast.king_capturing_moves
        self.captures_by: Callable[[int, int], list[int]] = fast.captures_by
        self.pass_turn: Callable[[], None] = fast.pass_turn

    @property
    def hash(self) -> int:
        return self.core.hash

    @property
    def king(self) -> int:
        return self.core.king

    @property
    def turn(self) -> int:
        return self.core.turn

    @property
    def status(self) -> Termination | None:
        return STATUS[self.core.status]

    @property
    def cells(self) -> bytes:
        return self.core.cells

    @property
    def last_captures(self) -> tuple[int, ...]:
        return tuple(self.core.last_captures())

    def make(self, move: int) -> Termination | None:
        """Play a legal move; how it ended the game (``None``: it goes on), as Board.make."""
        return STATUS[self.core.make(move)]

    def winning_moves(self) -> list[tuple[int, Termination]]:
        """Every move of the side to move that wins at once, in :meth:`moves`' order, with
        the ending it brings: each is played, and wins when its ending is the mover's or it
        leaves the other side no legal move (``NO_LEGAL_MOVE``), as the prover judges."""
        return [
            (move, STATUS[code] or Termination.NO_LEGAL_MOVE)
            for move, code in self.core.winning_moves()
        ]


class ReplayBoard:
    """A C board that plays a game's moves for :meth:`Game.play_all
    <bot.engine.game.Game.play_all>`: what playing a move asks of a board, answered by the fast
    core, with each move's undo record kept as :class:`~bot.engine.board.Board` keeps it
    (``Board.stack``), so that a Python board takes over at the end (:meth:`to_board`) exactly
    as if it had made every move itself."""

    __slots__ = ("core", "spec", "stack", "status", "variant")

    def __init__(self, board: Board) -> None:
        self.variant = board.variant
        self.spec = spec_for(board.variant)
        self.core = fast_board(board)
        self.stack = list(board.stack)
        self.status: Termination | None = board.status
        """How the last move ended the game (``None``: it goes on), as ``Board.status``."""

    @property
    def turn(self) -> int:
        return self.core.turn

    @property
    def hash(self) -> int:
        return self.core.hash

    @property
    def last_captures(self) -> tuple[int, ...]:
        return self.stack[-1][2] if self.stack else ()

    def is_legal(self, move: int) -> bool:
        """Whether ``move`` is legal for the side to move."""
        return self.status is None and self.core.is_legal(move)

    def make(self, move: int) -> Termination | None:
        """Play a legal move; how it ended the game (``None``: it goes on), as Board.make."""
        core = self.core
        if core.ply >= _REPLAY_DEPTH:
            # The C board's own undo stack is bounded, and the undo records are kept here:
            # go on from a fresh C board set up at the same position (the same hash).
            core = self.core = type(core)(self.spec, core.cells, core.turn)
        piece = core.cells[move >> MOVE_SHIFT]
        previous_hash = core.hash
        status = STATUS[core.make(move)]
        self.stack.append((move, piece, tuple(core.last_captures()), self.status, previous_hash))
        self.status = status
        return status

    def king_routes(self) -> list[int]:
        """The king's open routes, as Board.king_routes."""
        return self.core.king_routes()

    def king_threatened(self) -> bool:
        """Whether the attackers could capture the king with one move, as Board.king_threatened."""
        return self.status is None and bool(self.core.king_capturing_moves())

    def has_moves(self) -> bool:
        """Whether the side to move has a legal move, as Board.has_moves."""
        return self.status is None and self.core.has_moves()

    def to_board(self) -> Board:
        """A Python board at this position with this undo history: it plays on (and takes
        back any of the moves made here) as if it had made them itself."""
        board = Board(self.variant, list(self.core.cells), self.turn)
        board.status = self.status
        board.stack = self.stack
        return board


_REPLAY_DEPTH = 256
"""Moves a :class:`ReplayBoard`'s C board makes before it starts afresh (the C stack holds
``MAX_STACK``, 384)."""
