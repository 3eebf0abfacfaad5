"""The fast core's search (C, ``bot/ai/csrc/module.c``); :mod:`bot.ai.fast` is its Python face,
:class:`bot.ai.search.Searcher` drives it. Moves, sides and hashes are the engine's ints (see
``bot/engine/_core.pyi``); scores are the Python search's.

The suite checks this stub against the built module (``tests/test_native.py``, mypy's stubtest).
"""

from collections.abc import Callable, Sequence
from typing import Final, final

SOURCE_DIGEST: Final[str]
"""The SHA-256 of the C sources it was built from, the engine's with its own."""
MAX_SIZE: Final[int]
"""The largest board side it is built for."""

@final
class Search:
    """The fast core's search (driven by ``bot.ai.search.Searcher``)."""

    def __init__(
        self,
        board_spec: dict[str, object],
        eval_spec: dict[str, object],
        noise: int,
        noise_key: int,
        quiescence: bool,
        reads_threats: bool,
        reductions: bool,
        repetition_winner: int,
        even_reductions: bool,
        late_reductions: bytes,
        pruning: bool,
        pruning_settings: tuple[int, int, int, int, int, int, int, int],
    ) -> None: ...
    def start(
        self,
        cells: bytes,
        turn: int,
        seen: Sequence[int],
        draw_scores: tuple[int, int],
        check: Callable[[], object],
        /,
    ) -> None:
        """Set up a search: the root position, the game's earlier positions (hashes), a
        repetition's score for each side, and the stop check (called every 1,024 nodes; true
        stops the search, an exception it raises goes on from :meth:`root`)."""
    def root(
        self, depth: int, moves: Sequence[int], previous: dict[int, int], /
    ) -> tuple[int, int, dict[int, int]] | None:
        """One iteration: ``(score, best move, {move: score})``, ``None`` when stopped."""
    def pv(self, first: int, depth: int, /) -> list[int]:
        """The principal variation."""
    def tt_clear(self) -> None:
        """Empty the transposition table."""
    def tt_len(self) -> int:
        """Entries in the transposition table."""
    def tt_get(self, key: int, /) -> tuple[int, int, int, int] | None:
        """``(depth, flag, score, move)`` or ``None``."""
    def tt_keys(self) -> list[int]:
        """The table's keys."""
    def evaluate(self) -> int:
        """The root position's evaluation."""
    @property
    def nodes(self) -> int:
        """Nodes searched since :meth:`start`."""
    @property
    def partial(self) -> tuple[int, int] | None:
        """The running iteration's best root move and score so far, or ``None``."""
