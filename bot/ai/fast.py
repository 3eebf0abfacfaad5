"""The fast core's search: a C twin of the search, evaluation and king tactics, when built.

``pip install -e .`` compiles ``bot/ai/csrc`` (with the engine's board, ``bot/engine/csrc``)
into the extension ``bot.ai._core`` where a C compiler exists. :class:`~bot.ai.search.Searcher`
then hands each iteration's root search to it and keeps everything else (iterative deepening,
the time budget, what it reports); the Python methods stay the reference the tests compare it
with, node for node. Weights and tables are read from the Python objects (:func:`eval_spec`),
so a tuned weight or a new variant needs no C.

As for the engine's core (:mod:`bot.engine.core`), a build older than its sources is ignored,
and ``TAFL_PURE_PYTHON=1`` turns it off.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from bot.engine import core
from bot.engine.variants import Variant

from .evaluation import Evaluator

if TYPE_CHECKING:
    from . import _core

SOURCES = Path(__file__).resolve().parent / "csrc"
"""The C sources of ``bot.ai._core`` (with the engine's, :data:`bot.engine.core.SOURCES`)."""


@cache
def _loaded() -> tuple[ModuleType | None, str]:
    return core.load_extension("bot.ai._core", [core.SOURCES, SOURCES])


def extension() -> ModuleType | None:
    """The ``bot.ai._core`` module when it is built and fresh (else ``None``)."""
    return _loaded()[0]


def state() -> str:
    """``fast``, or why the search runs as pure Python: ``off``, ``missing`` or ``stale``."""
    return _loaded()[1]


def supports(variant: Variant) -> bool:
    """Whether the fast search can play ``variant`` (it is built for boards up to 11x11)."""
    module = extension()
    return module is not None and variant.size <= int(module.MAX_SIZE)


def eval_spec(evaluator: Evaluator) -> dict[str, object]:
    """The evaluation's weights and tables, read from a Python :class:`Evaluator`."""
    w = evaluator.weights
    return {
        "attacker": w.attacker,
        "defender": w.defender,
        "king_mobility": w.king_mobility,
        "threat_square": w.threat_square,
        "fork_square": w.fork_square,
        "king_distance": w.king_distance,
        "king_moves": w.king_moves,
        "attacker_near_king": w.attacker_near_king,
        "line_guard": w.line_guard,
        "mobility": w.mobility,
        "tempo": w.tempo,
        "king_closed": w.king_closed,
        "centre_strong": int(evaluator.centre_strong),
        "offset": evaluator.offset,
        "distance": evaluator.distance,
        "guard_squares": evaluator.guard_squares,
        "corner_lines": evaluator.corner_lines,
        "escape_rays": evaluator.escape_rays,
    }


def new_search(
    evaluator: Evaluator,
    *,
    noise: int,
    noise_key: int,
    quiescence: bool,
    reads_threats: bool,
    reductions: bool,
    even_reductions: bool,
    late_reductions: bytes,
    repetition_winner: int,
    pruning: bool,
    pruning_settings: tuple[int, int, int, int, int, int, int, int],
) -> _core.Search:
    """A C search for the evaluator's variant (see :class:`~bot.ai.search.Searcher`)."""
    if extension() is None:
        raise RuntimeError(f"the fast search is not in use ({state()})")
    from . import _core  # fresh: extension() checked it

    return _core.Search(
        core.board_spec(evaluator.variant),
        eval_spec(evaluator),
        noise,
        noise_key,
        quiescence,
        reads_threats,
        reductions,
        repetition_winner,
        even_reductions,
        late_reductions,
        pruning,
        pruning_settings,
    )
