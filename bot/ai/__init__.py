"""The tafl AI: a principal variation search with tafl tactics, at four levels.

- :class:`AIService` runs searches in worker processes for the bot's event loop.
- :func:`evaluate_position` and :func:`review` analyse a finished game (:mod:`bot.ai.analysis`).
- :func:`think` / :class:`Searcher` search a :class:`bot.engine.Board` directly.
- ``python -m bot.ai otep`` speaks the OpenTafl Engine Protocol;
  ``python -m bot.ai.lab.arena`` plays matches between levels.
"""

from .analysis import (
    GameAnalysis,
    Moment,
    MomentKind,
    PositionEval,
    evaluate_position,
    review,
)
from .evaluation import DEFAULT_WEIGHTS, Evaluator, Weights
from .levels import (
    DEFAULT_LEVEL,
    LEVEL_SETTINGS,
    LEVELS,
    Level,
    describe_levels,
    get_level,
    level_named,
    level_rating,
    level_ratings,
)
from .player import choose_move_text, think
from .search import MATE, Searcher, SearchResult, search_position
from .service import AIError, AIService, AIStopped, ChosenMove

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_WEIGHTS",
    "LEVELS",
    "LEVEL_SETTINGS",
    "MATE",
    "AIError",
    "AIService",
    "AIStopped",
    "ChosenMove",
    "Evaluator",
    "GameAnalysis",
    "Level",
    "Moment",
    "MomentKind",
    "PositionEval",
    "SearchResult",
    "Searcher",
    "Weights",
    "choose_move_text",
    "describe_levels",
    "evaluate_position",
    "get_level",
    "level_named",
    "level_rating",
    "level_ratings",
    "review",
    "search_position",
    "think",
]
