"""The tafl rules engine: pure Python, standard library only.

Every variant of ``docs/RULES.md`` is a :class:`Variant` description in :data:`VARIANTS`;
:class:`Game` plays any of them with forgiving move input, full history, undo and OTN records.
The fast make/unmake :class:`~bot.engine.board.Board` behind it serves perft and the AI.
"""

from .board import Board
from .errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    MoveParseError,
    PositionError,
    TaflError,
    UnknownVariantError,
)
from .game import REPETITION_LIMIT, Game
from .otn import format_position, parse_position
from .types import (
    Escape,
    Move,
    MoveNumber,
    MoveResult,
    Outcome,
    Piece,
    Side,
    Square,
    Termination,
    parse_square,
    square_name,
)
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant

__all__ = [
    "DEFAULT_VARIANT",
    "REPETITION_LIMIT",
    "VARIANTS",
    "AmbiguousMoveError",
    "Board",
    "Escape",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "MoveNumber",
    "MoveParseError",
    "MoveResult",
    "Outcome",
    "Piece",
    "PositionError",
    "Side",
    "Square",
    "TaflError",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "format_position",
    "get_variant",
    "parse_position",
    "parse_square",
    "square_name",
]
